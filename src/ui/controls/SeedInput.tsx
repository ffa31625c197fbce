/** The seed field of the Replay and Compare controls: typed freely, applied on Enter or blur when it is a valid seed. */
import { useState } from 'react';

/** what a scenario's `seed` accepts (SPEC §10): a whole number 0 … 2^31 − 1 */
const isSeed = (n: number): boolean => Number.isInteger(n) && n >= 0 && n <= 2 ** 31 - 1;

export function SeedInput({ seed, onSeed, disabled = false }: { seed: number | null; onSeed: (seed: number) => void; disabled?: boolean }) {
  const [text, setText] = useState<string | null>(null);
  const apply = () => {
    if (text === null) return;
    const n = Number(text);
    if (isSeed(n)) onSeed(n);
    setText(null);
  };
  return (
    <label className="seed">
      seed
      <input
        type="number"
        min={0}
        step={1}
        value={text ?? (seed ?? '')}
        aria-label="Seed"
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => e.key === 'Enter' && apply()}
      />
    </label>
  );
}
