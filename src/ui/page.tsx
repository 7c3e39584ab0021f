/** A screen with a NavBar whose back falls back to /home/index when there is no history. */
import { NavBar } from 'antd-mobile';
import { useCallback, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';

/** Back: the previous entry when this tab has history, else /home/index (product-spec §2). */
export function useBack(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/home/index', { replace: true });
  }, [navigate]);
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
  return (
    <div className={`page ${className ?? ''}`}>
      <NavBar className="page-nav" backIcon={back} back={back ? '' : null} onBack={onBack} right={right}>
        {title}
      </NavBar>
      <div className="page-body">{children}</div>
    </div>
  );
}
