// The S3_* variables: checked at start, each problem named in one line.
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/server/platform/env.server";
import { tempDirs } from "../helpers/temp-dirs";

const dir = tempDirs("taxbridge-env-s3-");
const BUCKET = { S3_BUCKET: "taxbridge-documents", S3_REGION: "us-east-1" };

describe("object storage settings", () => {
  it("keep documents in DATA_DIR/uploads when no S3 variable is set", () => {
    expect(parseEnv({ DATA_DIR: dir() }).s3).toBeUndefined();
    expect(parseEnv({ DATA_DIR: dir(), S3_BUCKET: "", S3_REGION: " " }).s3).toBeUndefined();
  });

  it("read every variable when the bucket is named", () => {
    expect(
      parseEnv({
        DATA_DIR: dir(),
        S3_BUCKET: "taxbridge-documents",
        S3_REGION: "eu-central-1",
        S3_ENDPOINT: "https://s3.example.com",
        S3_FORCE_PATH_STYLE: "true",
        S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
        S3_SECRET_ACCESS_KEY: "secret/example+key",
      }).s3,
    ).toEqual({
      bucket: "taxbridge-documents",
      region: "eu-central-1",
      endpoint: "https://s3.example.com",
      forcePathStyle: true,
      credentials: { accessKeyId: "AKIAEXAMPLE", secretAccessKey: "secret/example+key" },
    });
  });

  it("leave the endpoint, path style and credentials to AWS's defaults when unset", () => {
    expect(parseEnv({ DATA_DIR: dir(), ...BUCKET }).s3).toEqual({
      bucket: "taxbridge-documents",
      region: "us-east-1",
      endpoint: undefined,
      forcePathStyle: false,
      credentials: undefined,
    });
  });

  it("stop the start in one line naming what is missing or wrong", () => {
    const cases: Array<[Record<string, string>, string]> = [
      [
        { S3_ENDPOINT: "http://127.0.0.1:9000", S3_ACCESS_KEY_ID: "k" },
        "Invalid configuration: S3_BUCKET is required with S3_ENDPOINT, S3_ACCESS_KEY_ID (the bucket to keep documents in; unset them all to keep documents in DATA_DIR/uploads).",
      ],
      [
        { S3_BUCKET: "taxbridge-documents" },
        "Invalid configuration: S3_REGION is required with S3_BUCKET (the bucket's region, e.g. us-east-1; the one your S3-compatible store documents otherwise).",
      ],
      [
        { ...BUCKET, S3_ACCESS_KEY_ID: "k" },
        "Invalid configuration: S3_SECRET_ACCESS_KEY is missing: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY both, or neither to use the AWS SDK's own credentials (an instance or task role).",
      ],
      [
        { ...BUCKET, S3_SECRET_ACCESS_KEY: "s" },
        "Invalid configuration: S3_ACCESS_KEY_ID is missing: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY both, or neither to use the AWS SDK's own credentials (an instance or task role).",
      ],
      [
        { ...BUCKET, S3_BUCKET: "Tax_Docs" },
        "Invalid configuration: S3_BUCKET: must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit.",
      ],
      [{ ...BUCKET, S3_ENDPOINT: "s3.example.com" }, "Invalid configuration: S3_ENDPOINT: must be a URL starting with http:// or https://."],
      [{ ...BUCKET, S3_FORCE_PATH_STYLE: "yes" }, "Invalid configuration: S3_FORCE_PATH_STYLE: must be true or false."],
      [
        { ...BUCKET, S3_REGION: "US East" },
        "Invalid configuration: S3_REGION: must be a region name such as us-east-1 (lowercase letters, digits and hyphens).",
      ],
    ];
    for (const [values, message] of cases) {
      expect(() => parseEnv({ DATA_DIR: dir(), ...values })).toThrow(message);
    }
  });

  it("never put the secret key in a message", () => {
    const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    let message = "";
    try {
      parseEnv({ DATA_DIR: dir(), S3_BUCKET: "taxbridge-documents", S3_SECRET_ACCESS_KEY: secret });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/S3_REGION/);
    expect(message).not.toContain(secret);
  });
});
