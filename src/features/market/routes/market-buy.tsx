/**
 * `/market/marketBuy?symbol=` (product-spec §2, "open a position"): the order ticket of one
 * instrument on a screen of its own, under its live quote; the detail screen carries the same
 * ticket under its chart.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { symbolSchema } from '../../../../contract/market';
import { QuickTicket } from '../../trading';
import { MarketStatusBar } from '../../../live/components/status-bar';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';

export function MarketBuyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const parsed = symbolSchema.safeParse((useSearchParams()[0].get('symbol') ?? '').trim().toUpperCase());
  const open = useCallback((s: string) => navigate(`/market/marketDetail?symbol=${s}`), [navigate]);
  return (
    <Page title={t('trade.buyTitle')}>
      <MarketStatusBar />
      {parsed.success ? <QuickTicket symbol={parsed.data} onOpen={open} /> : <NoData />}
    </Page>
  );
}
