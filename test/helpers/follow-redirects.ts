/**
 * Does what the user's browser does with an authorization URL: opens it and follows the redirects
 * (five at most) until a response that sends it nowhere else, such as the app's loopback callback.
 * Bodies are dropped: only the requests matter.
 */
export async function followRedirects(url: string, maxHops = 5): Promise<void> {
  let next = url;
  for (let hop = 0; hop < maxHops; hop += 1) {
    const response = await fetch(next, { redirect: 'manual' });
    const location = response.headers.get('location');
    await response.body?.cancel();
    if (!location) return;
    next = new URL(location, next).href;
  }
}
