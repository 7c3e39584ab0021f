/** A screen with a NavBar whose back falls back to /home/index when there is no history. */
import { NavBar } from 'antd-mobile';
import { useCallback, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { HOME_PATH, hasInAppHistory } from '../lib/in-app-history';

/**
 * Back: the previous entry when this tab has history, else `fallback` (default /home/index,
 * product-spec §2), replacing this entry (a screen opened by its address has nowhere to go back).
 */
export function useBack(fallback: string = HOME_PATH): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    if (hasInAppHistory()) navigate(-1);
    else navigate(fallback, { replace: true });
  }, [navigate, fallback]);
}

/**
 * NavBar's left slot is always a `role="button"` div (antd-mobile 5.43) and its back text is
 * aria-hidden: give it a name when it is the back button, and drop the role when it is empty, so
 * screen readers announce "back" and never a nameless button (WCAG 4.1.2).
 */
function useNavBackName(page: RefObject<HTMLDivElement | null>, back: boolean, label: string): void {
  useLayoutEffect(() => {
    const left = page.current?.querySelector(':scope > .adm-nav-bar > .adm-nav-bar-left');
    if (!left) return;
    if (back) {
      left.setAttribute('role', 'button');
      left.setAttribute('aria-label', label);
    } else {
      left.removeAttribute('role');
      left.removeAttribute('aria-label');
    }
  }, [page, back, label]);
}

/** A screen: NavBar (title, optional back and right-hand content) above its body. */
export function Page({
  title,
  back = true,
  right,
  children,
  className,
}: {
  title: ReactNode;
  back?: boolean;
  right?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const onBack = useBack();
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useNavBackName(ref, back, t('common.back'));
  return (
    <div ref={ref} className={`page ${className ?? ''}`}>
      <NavBar className="page-nav" backIcon={back} back={back ? '' : null} onBack={onBack} right={right}>
        {title}
      </NavBar>
      <div className="page-body">{children}</div>
    </div>
  );
}
