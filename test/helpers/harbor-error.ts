import { HarborError } from '../../main/host/errors';

/** The HarborError a promise rejects with (anything else, or no rejection, fails the test). */
export async function errorOf(promise: Promise<unknown>): Promise<HarborError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof HarborError)) throw new Error(`expected a HarborError, got ${String(error)}`);
  return error;
}
