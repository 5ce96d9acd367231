// Slack's request signing (https://api.slack.com/authentication/verifying-requests-from-slack):
// X-Slack-Signature is `v0=` and the hex HMAC-SHA256, under the app's signing secret, of
// `v0:<X-Slack-Request-Timestamp>:<raw body>`; a timestamp more than five minutes from now is a
// replay and is refused whatever its signature.
import { createHmac, timingSafeEqual } from 'node:crypto';

const MAX_AGE_SECONDS = 5 * 60;

export const slackSignature = (secret: string, timestamp: string, rawBody: string | Buffer) =>
  `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:`).update(rawBody).digest('hex')}`;

/** Whether a request carries a fresh signature made with `secret`. */
export function verifySlackSignature(
  secret: string,
  headers: { timestamp?: string; signature?: string },
  rawBody: string | Buffer,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const { timestamp, signature } = headers;
  if (!secret || !timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > MAX_AGE_SECONDS) return false;
  const expected = Buffer.from(slackSignature(secret, timestamp, rawBody));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
