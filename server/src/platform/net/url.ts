/*
 * URLs of the configuration (DATABASE_URL, MQTT_URL, SMTP_URL) as the logs and the start banner
 * print them: never with their password.
 */

/** A URL with its password replaced, for printing. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
  }
}
