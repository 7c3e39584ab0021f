/** A row of mutually exclusive buttons (side, order type, leverage), each with its own testid. */
import { Button } from 'antd-mobile';
import type { ReactNode } from 'react';

export interface SegmentOption<V extends string | number> {
  value: V;
  label: ReactNode;
  testId: string;
  /** Colour when selected (defaults to primary). */
  activeColor?: string;
  /** Not selectable now (say why next to the row). */
  disabled?: boolean;
}

export function Segmented<V extends string | number>({
  options,
  value,
  onChange,
  className,
}: {
  options: SegmentOption<V>[];
  value: V;
  onChange: (v: V) => void;
  className?: string;
}) {
  return (
    <div className={`segmented ${className ?? ''}`}>
      {options.map((o) => {
        const active = o.value === value;
        return (
          <Button
            key={String(o.value)}
            size="small"
            fill={active ? 'solid' : 'outline'}
            color={active ? 'primary' : 'default'}
            style={
              active && o.activeColor
                ? { '--background-color': o.activeColor, '--border-color': o.activeColor }
                : undefined
            }
            disabled={o.disabled}
            onClick={() => onChange(o.value)}
            data-testid={o.testId}
            aria-pressed={active}
          >
            {o.label}
          </Button>
        );
      })}
    </div>
  );
}
