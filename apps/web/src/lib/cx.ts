/**
 * Joins class names, leaving out the falsy ones: `cx(styles.row, isActive && styles.rowActive)`.
 * Classes come from each component's CSS module (`*.module.css`, scoped to it); only the design
 * tokens and primitives of src/app/app.css are global.
 */
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}
