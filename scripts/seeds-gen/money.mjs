// Amounts are integer cents everywhere; these helpers only format them for ticket text and expected lines.

/** 24300 -> "$243.00", 123456 -> "$1,234.56" */
export function usd(cents) {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, "0")}`;
}
/** 24300 -> "243.00" (how some customers write it) */
export function plain(cents) {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}
/** 24300 -> "243" when whole, else "243.50" */
export function loose(cents) {
  return cents % 100 === 0 ? String(cents / 100) : plain(cents);
}
