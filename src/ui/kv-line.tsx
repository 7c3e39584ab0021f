/** One label–value line of a card (`.kv`, src/app/styles.css): the label left, the value right. */
import type { ReactNode } from 'react';

/**
 * @param label the translated label
 * @param value the value; '', null or undefined shows '--'
 * @param block the value under its label instead of beside it (long values such as hashes)
 */
export function KvLine({
  label,
  value,
  testId,
  block,
}: {
  label: string;
  value: ReactNode;
  testId?: string;
  block?: boolean;
}) {
  return (
    <div className={block ? 'kv kv-block' : 'kv'}>
      <div className="kv-k">{label}</div>
      <div className="kv-v" data-testid={testId}>
        {value === '' || value === null || value === undefined ? '--' : value}
      </div>
    </div>
  );
}
