// Files and folders this process creates are readable by its own user only (the data folder
// holds the database, uploaded documents and secrets). Imported first by every entry point
// that writes DATA_DIR.
process.umask(0o077);
