/** Applies the configured normalizers, in order, to one piece of text. */
export type Normalizer = (text: string) => string;
export type Normalize = (text: string) => string;

export const identity: Normalize = (t) => t;

export function composeNormalizers(normalizers: readonly Normalizer[]): Normalize {
  if (normalizers.length === 0) return identity;
  return (text) => {
    let t = text;
    for (const n of normalizers) t = n(t);
    return t;
  };
}
