/**
 * Removes every form in which the SMTP password could travel (plain, URL-encoded,
 * and the base64 of AUTH LOGIN / AUTH PLAIN) from text that leaves the plugin.
 */
export class Scrubber {
  readonly #forms: string[];

  constructor(user: string | undefined, password: string | undefined) {
    const forms = new Set<string>();
    if (password) {
      forms.add(password);
      forms.add(encodeURIComponent(password));
      forms.add(Buffer.from(password).toString('base64'));
      forms.add(Buffer.from(`\0${user ?? ''}\0${password}`).toString('base64'));
      forms.add(Buffer.from(`${user ?? ''}\0${user ?? ''}\0${password}`).toString('base64'));
    }
    // Longest first, so a form containing another is removed whole.
    this.#forms = [...forms].sort((a, b) => b.length - a.length);
  }

  scrub(text: string): string {
    let out = text;
    for (const form of this.#forms) out = out.split(form).join('[redacted]');
    return out;
  }
}
