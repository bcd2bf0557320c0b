// Rates travel as basis points (the mining screens' uptime and split, the team's level rates and
// shares), so their formatting lives here rather than in one feature.

/** Basis points (whole, not negative) as a percentage with at most 2 decimals: 9000 → "90%", 9350 → "93.5%", 25 → "0.25%". */
export function formatBps(bps: number): string {
  const fraction = String(bps % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return `${Math.floor(bps / 100)}${fraction ? `.${fraction}` : ''}%`;
}
