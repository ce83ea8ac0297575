// Which URLs a server may ask the user to open (URL elicitation): https, or plain http only to
// this machine (a local sign-in helper). Anything else (javascript:, file:, data:, http to another
// host, credentials in the URL) is refused before it is shown as openable.

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname.endsWith('.localhost');
}

export function checkOpenableUrl(text: string): UrlCheck {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (url.username || url.password) return { ok: false, reason: 'the URL carries a user name or password' };
  if (url.protocol === 'https:') return { ok: true, url };
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return { ok: true, url };
  if (url.protocol === 'http:') return { ok: false, reason: 'plain http: is allowed only to this machine (localhost); the server must use https:' };
  return { ok: false, reason: `${url.protocol} URLs are never opened (only https:, or http: to localhost)` };
}
