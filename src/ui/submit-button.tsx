/** The full-width primary submit button of a form's footer. */
import { Button } from 'antd-mobile';
import type { ReactNode } from 'react';

export function SubmitButton({
  loading,
  testId,
  children,
}: {
  loading: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Button block type="submit" color="primary" size="large" loading={loading} data-testid={testId}>
      {children}
    </Button>
  );
}
