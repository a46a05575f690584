import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const COOKIE = 'toolshed_inspect';

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function cookieOf(request: IncomingMessage): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return value.join('=');
  }
  return undefined;
}

/**
 * The printed URL's token works once: it is exchanged for a session secret kept in an
 * HttpOnly, SameSite=Strict cookie, so the token in the terminal's scrollback or the
 * browser's history opens nothing later, and scripts of other sites never see the secret.
 */
export class Session {
  readonly token = randomBytes(24).toString('base64url');
  readonly #secret = randomBytes(32).toString('base64url');
  #exchanged = false;

  /** The Set-Cookie value for the token's first use; undefined for a wrong or used token. */
  exchange(token: string): string | undefined {
    if (this.#exchanged || !same(token, this.token)) return undefined;
    this.#exchanged = true;
    return `${COOKIE}=${this.#secret}; HttpOnly; SameSite=Strict; Path=/`;
  }

  admits(request: IncomingMessage): boolean {
    const cookie = cookieOf(request);
    return cookie !== undefined && same(cookie, this.#secret);
  }
}
