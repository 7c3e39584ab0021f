/**
 * antd-mobile inputs put native props on their wrapper; end-to-end tests need the testid on the
 * <input> itself so Playwright can fill() it. These wrappers set it through the component ref.
 */
import {
  Input,
  Stepper,
  type InputProps,
  type InputRef,
  type StepperProps,
  type StepperRef,
} from 'antd-mobile';
import { useLayoutEffect, useRef } from 'react';

export function TestIdInput({ testId, ...props }: InputProps & { testId: string }) {
  const ref = useRef<InputRef>(null);
  useLayoutEffect(() => {
    ref.current?.nativeElement?.setAttribute('data-testid', testId);
  }, [testId]);
  return <Input ref={ref} {...props} />;
}

export function TestIdStepper({ testId, ...props }: StepperProps & { testId: string }) {
  const ref = useRef<StepperRef>(null);
  useLayoutEffect(() => {
    ref.current?.nativeElement?.setAttribute('data-testid', testId);
  }, [testId]);
  return <Stepper ref={ref} {...(props as StepperProps)} />;
}
