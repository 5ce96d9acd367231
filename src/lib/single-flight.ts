// Identical reads in flight at the same moment share one query: a caller that asks while the same
// question is already being answered waits for that answer instead of asking again. Nothing is kept
// once the answer arrives (this is not a cache), so no answer is older than the query in flight
// when its caller arrived.
export function singleFlight<A extends unknown[], T>(keyOf: (...args: A) => string, run: (...args: A) => Promise<T>): (...args: A) => Promise<T> {
  const inFlight = new Map<string, Promise<T>>();
  return (...args: A) => {
    const key = keyOf(...args);
    let answer = inFlight.get(key);
    if (!answer) {
      answer = run(...args).finally(() => inFlight.delete(key));
      inFlight.set(key, answer);
    }
    return answer;
  };
}
