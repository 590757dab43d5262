// Text folding for matching: case- and accent-insensitive, so "zoe" finds "Zoë" and "cafe" finds "Café".

/** Lowercases and strips combining marks after canonical decomposition (é → e, ñ → n, ö → o). */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** The keys a technician is found by: the folded full name and the folded first name. */
export function technicianKeys(name: string): string[] {
  const full = fold(name).trim().replace(/\s+/g, ' ');
  const first = full.split(' ')[0] ?? full;
  return first === full ? [full] : [full, first];
}
