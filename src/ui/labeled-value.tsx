/**
 * A label over (`figure`) or beside (`line`) a value. An empty value shows a CSS-only dash, so
 * the text stays empty (and tests never read a placeholder as a number) until the figure arrives.
 */
export function LabeledValue({
  label,
  value,
  testId,
  color,
  layout,
}: {
  label: string;
  value: string;
  testId?: string;
  color?: string;
  layout: 'figure' | 'line';
}) {
  const [box, k, v] = layout === 'figure' ? ['uc-figure', 'uc-k', 'uc-v'] : ['kv', 'kv-k', 'kv-v'];
  return (
    <div className={box}>
      <div className={k}>{label}</div>
      <div
        className={`${v} ${value ? '' : 'dash'}`}
        data-testid={testId}
        style={color ? { color } : undefined}
      >
        {value}
      </div>
    </div>
  );
}
