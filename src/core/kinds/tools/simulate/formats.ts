// The string formats the simulator both produces and checks. Others are accepted as plain strings.
const CHECKS: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  "date-time": /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  time: /^\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
  email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  uri: /^[a-z][a-z0-9+.-]*:\/\/\S+$/i,
  url: /^[a-z][a-z0-9+.-]*:\/\/\S+$/i,
  ipv4: /^(\d{1,3}\.){3}\d{1,3}$/,
};

export function matchesFormat(format: string, v: string): boolean {
  const re = CHECKS[format];
  return re ? re.test(v) : true;
}

export const KNOWN_FORMATS = Object.keys(CHECKS);
