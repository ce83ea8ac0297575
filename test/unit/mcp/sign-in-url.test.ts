import { describe, expect, it } from 'vitest';
import { checkSignInUrl } from '../../../src/services/mcp/sign-in-url';

// docs/ARCHITECTURE.md, Security invariants 10: a sign-in address from a server's metadata is opened
// only when it is https (or http to this machine) to an ordinary host.

describe('sign-in addresses', () => {
  it.each([
    ['https://auth.example.com/authorize?response_type=code&state=x', 'auth.example.com'],
    ['https://auth.example.com:8443/a', 'auth.example.com:8443'],
    ['http://127.0.0.1:8080/authorize', '127.0.0.1:8080'],
    ['http://127.8.9.10/authorize', '127.8.9.10'],
    ['http://localhost:3000/authorize', 'localhost:3000'],
    ['http://[::1]:9000/authorize', '[::1]:9000'],
    ['HTTPS://Auth.Example.COM/x', 'auth.example.com'],
  ])('opens %s (host %s)', (url, host) => {
    expect(checkSignInUrl(url)).toMatchObject({ ok: true, host });
  });

  it.each([
    // Other schemes.
    ['file:///etc/passwd', /not file:/],
    ['javascript:alert(1)', /not javascript:/],
    ['JaVaScRiPt:alert(1)', /not javascript:/],
    ['data:text/html,<script>x</script>', /not data:/],
    ['vbscript:msgbox', /not vbscript:/],
    ['ftp://example.com/x', /not ftp:/],
    ['chrome://settings', /not chrome:/],
    ['about:blank', /not about:/],
    ['ms-settings:privacy', /not ms-settings:/],
    ['not a url', /not a URL/],
    // Plain http off this machine.
    ['http://auth.example.com/authorize', /plain http is opened only for this machine/],
    ['http://127.0.0.1.evil.example/authorize', /plain http is opened only for this machine/],
    ['http://localhost.evil.example/authorize', /plain http/],
    // Link-local and cloud metadata, in every spelling the URL parser accepts.
    ['https://169.254.169.254/latest/meta-data', /link-local/],
    ['http://169.254.169.254/latest/meta-data', /link-local/],
    ['https://2852039166/', /169\.254\.169\.254 is a link-local/],
    ['https://0xa9.0xfe.0xa9.0xfe/', /169\.254\.169\.254 is a link-local/],
    ['https://0251.0376.0251.0376/', /169\.254\.169\.254 is a link-local/],
    ['https://169.254.1.1/', /link-local/],
    ['https://[fe80::1]/', /link-local/],
    ['https://[febf:ffff::1]/', /link-local/],
    ['https://[::ffff:169.254.169.254]/', /link-local/],
    ['https://metadata.google.internal/computeMetadata/v1/', /metadata service/],
    ['https://METADATA.GOOGLE.INTERNAL./x', /metadata service/],
    ['https://metadata.goog/', /metadata service/],
    ['https://100.100.100.200/latest/meta-data', /metadata service/],
    ['https://[fd00:ec2::254]/', /metadata service/],
    ['https://0.0.0.0/', /not a real host/],
    ['https://[::]/', /not a real host/],
    // A user name in front of the real host.
    ['https://accounts.google.com@evil.example/authorize', /behind a user name \(…@evil\.example\)/],
    ['https://accounts.google.com:secret@evil.example/', /behind a user name/],
    ['https://:x@evil.example/', /behind a user name/],
    ['https://good.example%40evil.example@evil.example/', /behind a user name/],
  ])('refuses %s', (url, reason) => {
    const checked = checkSignInUrl(url);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.reason).toMatch(reason);
  });

  it('allows look-alike hosts only as what they are: the host is what gets emphasised', () => {
    // Not refused (an ordinary https host), but the host shown is the real one: punycode for a Cyrillic а.
    expect(checkSignInUrl('https://accounts.google.com.evil.example/authorize')).toMatchObject({ ok: true, host: 'accounts.google.com.evil.example' });
    expect(checkSignInUrl('https://аccounts.google.com/')).toMatchObject({ ok: true, host: 'xn--ccounts-1fg.google.com' });
  });
});
