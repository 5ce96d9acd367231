// An outside system that asked to be called again later (a 429 with Retry-After, a 503 with a
// hint): the job that called it is retried no sooner than it asked, instead of after the queue's
// own back-off, which could be too soon and be refused again.

export class RetryLater extends Error {
  constructor(
    /** Seconds to wait before the next attempt. */
    readonly seconds: number,
    message: string,
  ) {
    super(message);
    this.name = 'RetryLater';
  }
}

export const isRetryLater = (err: unknown): err is RetryLater => err instanceof RetryLater;
