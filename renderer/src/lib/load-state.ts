import { isErrorCode, type HarborErrorData, type Result } from '../../../preload/contract';

/** What a page shows while it fetches something from the Host. */
export type LoadState<T> =
  | { readonly status: 'loading' }
  | { readonly status: 'error'; readonly error: HarborErrorData }
  | { readonly status: 'ready'; readonly value: T };

export function fromResult<T>(result: Result<T>): LoadState<T> {
  return result.ok ? { status: 'ready', value: result.value } : { status: 'error', error: asErrorData(result.error) };
}

/**
 * Error data crossed a process boundary: make sure a person sees a sentence, never
 * "[object Object]", whatever shape actually arrived.
 */
export function asErrorData(error: unknown): HarborErrorData {
  if (typeof error === 'object' && error !== null) {
    const { code, message, detail } = error as Record<string, unknown>;
    return {
      code: isErrorCode(code) ? code : 'INTERNAL',
      message: typeof message === 'string' && message ? message : 'Something went wrong, and Harbor gave no details.',
      ...(typeof detail === 'string' && detail ? { detail } : {}),
    };
  }
  if (typeof error === 'string' && error) return { code: 'INTERNAL', message: error };
  return { code: 'INTERNAL', message: 'Something went wrong, and Harbor gave no details.' };
}
