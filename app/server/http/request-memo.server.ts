/**
 * What several loaders of one page need alike is asked of the database once per request: the
 * first asks, the others share its answer. Answers live as long as the request's context (the
 * RouterContextProvider each request gets), never longer, and are shared by that request only.
 */
const answers = new WeakMap<object, Map<string, Promise<unknown>>>();

export function oncePerRequest<T>(context: object, key: string, load: () => Promise<T>): Promise<T> {
  let known = answers.get(context);
  if (!known) {
    known = new Map();
    answers.set(context, known);
  }
  let answer = known.get(key) as Promise<T> | undefined;
  if (!answer) {
    answer = load();
    known.set(key, answer);
  }
  return answer;
}
