// Which URLs a server may ask the user to open (URL elicitation): exactly the addresses a sign-in
// may open (sign-in-url.ts), since a server chooses both: https, or plain http only to this
// machine; never another scheme, credentials in front of the host, a link-local or cloud metadata
// address.
import { checkSignInUrl } from './sign-in-url';

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

export function checkOpenableUrl(text: string): UrlCheck {
  const checked = checkSignInUrl(text);
  return checked.ok ? { ok: true, url: new URL(checked.url) } : { ok: false, reason: checked.reason };
}
