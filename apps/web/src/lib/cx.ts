/**
 * Joins class names, leaving out the falsy ones: `cx(styles.row, isActive && styles.rowActive)`.
 * Classes come from each component's CSS module (`*.module.css`, scoped to it); only the design
 * tokens and primitives of src/app/app.css are global.
 */
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}

/**
 * A module's class whose name is made at run time from data, written as in the stylesheet:
 * `variant(styles, `tier-card--${state}`)` reads `styles.tierCardSoldOut` for 'sold_out'.
 * A module exports camelCase keys only (vite.config.ts, css.modules.localsConvention).
 */
export function variant(styles: CSSModuleClasses, name: string): string | undefined {
  return styles[camelKey(name)];
}

/** A class's key in its module: lodash's camelCase, which Vite's CSS modules use, for ASCII names. */
export function camelKey(name: string): string {
  const words = name.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g) ?? [];
  return words.map((word, index) => (index === 0 ? word.toLowerCase() : word[0]!.toUpperCase() + word.slice(1).toLowerCase())).join('');
}
