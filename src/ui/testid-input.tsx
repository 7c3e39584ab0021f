/**
 * antd-mobile inputs put native props on their wrapper; end-to-end tests need the testid on the
 * <input> itself so Playwright can fill() it. These wrappers set it through the component ref.
 *
 * The stepper also gets an accessible name on its <input> (`ariaLabel`), and the aria-value*
 * attributes antd-mobile (5.43) copies onto the input's wrapper <div> are removed there: they
 * belong to the input's `spinbutton` role and are not allowed on a role-less div (WCAG 4.1.2).
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

const WRAPPER_ARIA = ['aria-valuenow', 'aria-valuemax', 'aria-valuemin'];

export function TestIdStepper({
  testId,
  ariaLabel,
  ...props
}: StepperProps & { testId: string; ariaLabel?: string }) {
  const ref = useRef<StepperRef>(null);
  useLayoutEffect(() => {
    ref.current?.nativeElement?.setAttribute('data-testid', testId);
  }, [testId]);
  useLayoutEffect(() => {
    const input = ref.current?.nativeElement;
    if (input && ariaLabel) input.setAttribute('aria-label', ariaLabel);
  }, [ariaLabel]);
  useLayoutEffect(() => {
    const wrapper = ref.current?.nativeElement?.parentElement;
    if (!wrapper) return;
    const strip = () => {
      for (const a of WRAPPER_ARIA) if (wrapper.hasAttribute(a)) wrapper.removeAttribute(a);
    };
    strip();
    // The stepper re-renders on its own (typing, +/−) and React sets them again: keep removing.
    const watch = new MutationObserver(strip);
    watch.observe(wrapper, { attributes: true, attributeFilter: WRAPPER_ARIA });
    return () => watch.disconnect();
  }, []);
  return <Stepper ref={ref} {...(props as StepperProps)} />;
}
