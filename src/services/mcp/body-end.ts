// How an HTTP response body ended is known only to whoever reads it, and the SDK reads event
// streams without telling anyone that one broke. This passes the body on unchanged and reports
// its end: a clean end, or the error it broke with (a server that died mid-stream).

/**
 * `onEnd(undefined)` after a clean end, `onEnd(error)` after a break; nothing when the request was
 * aborted or the reader cancelled the body (both are our own doing, not news about the server).
 * `onData` is called before each chunk is passed on.
 */
export function reportBodyEnd(response: Response, signal: AbortSignal | null | undefined, onEnd: (error: unknown) => void, onData?: () => void): Response {
  const source = response.body;
  if (!source) return response;
  const reader = source.getReader();
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (!done) {
          onData?.();
          controller.enqueue(value);
          return;
        }
        controller.close();
        if (!signal?.aborted) onEnd(undefined);
      } catch (error) {
        controller.error(error);
        if (!signal?.aborted && !cancelled) onEnd(error);
      }
    },
    cancel(reason) {
      cancelled = true;
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
