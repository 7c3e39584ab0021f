/** The order ticket's submit button (./order-panel.tsx). */
import { Button } from 'antd-mobile';
import { useRef, useState } from 'react';
import { afterNextPaint } from '../../../lib/after-paint';

/**
 * The order button. Its busy state is its own: a tap re-renders this button alone, paints, and
 * only then runs `onSubmit` (the mutation), so the tap's next paint never waits for the whole
 * ticket to re-render (input → next paint under load, npm run bench:stream). No spinner:
 * antd-mobile's animated loading icon delayed that paint by ~200 ms. `onConfirm` runs first (the
 * confirmation above the member's threshold; the dialog is then the tap's paint): false ends the
 * tap with nothing sent and the button as it was.
 */
export function OrderSubmitButton({
  color,
  disabled,
  onConfirm,
  onSubmit,
  label,
  busyLabel,
  testId,
}: {
  color: string;
  disabled: boolean;
  onConfirm: () => Promise<boolean>;
  onSubmit: () => Promise<void>;
  label: string;
  busyLabel: string;
  testId: string;
}) {
  const [busy, setBusy] = useState(false);
  // A second tap while the first is still asking (waiting for the threshold or the dialog) is ignored.
  const asking = useRef(false);
  const click = async () => {
    if (busy || asking.current) return;
    asking.current = true;
    try {
      if (!(await onConfirm())) return;
    } finally {
      asking.current = false;
    }
    setBusy(true);
    await afterNextPaint();
    try {
      await onSubmit();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      block
      size="large"
      color="primary"
      style={{ '--background-color': color, '--border-color': color }}
      disabled={disabled || busy}
      onClick={click}
      data-testid={testId}
    >
      {busy ? busyLabel : label}
    </Button>
  );
}
