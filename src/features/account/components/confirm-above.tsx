/**
 * "Are you sure?" above the member's threshold: the one place every order ticket (the market
 * detail, /market/marketBuy, the Trade tab and the day-trade ticket, all through
 * src/features/trading/components/order-panel.tsx), the pending-order rows' cancel (features/position) and
 * the exchange screen (features/funds) ask before sending a large action.
 *
 * The caller values its action in TWD minor units (what each counts: contract/account.ts
 * CONFIRM_ABOVE_DEFAULT_MINOR) and describes it in rows; `useConfirmAbove` answers true at once
 * below the member's threshold (one tap, as before), and otherwise shows antd-mobile's
 * Dialog.confirm with the rows and resolves to the member's choice. The decision is
 * contract/account.ts confirmNeeded. The threshold is the member's saved one (user/preferences);
 * until it has loaded, or if it cannot be read, the default NT$100,000 applies, so a large action
 * is never sent unasked for want of an answer, and nothing is ever refused by it.
 */
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { Dialog } from 'antd-mobile';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { CONFIRM_ABOVE_DEFAULT_MINOR, confirmNeeded } from '../../../../contract/confirm-above';
import { selectLoggedIn } from '../../../api/session';
import { formatMinor } from '../../../lib/format';
import { preferencesApi, usePreferencesQuery } from '../api/preferences-api';
import './confirm-above.css';

/** One line of the dialog: a label and its value, as shown (already translated and formatted). */
export interface ConfirmRow {
  label: string;
  value: string;
  /** Suffix of the value's test id: `confirm-above-<testId>`. */
  testId: string;
}

/** What to confirm. */
export interface ConfirmRequest {
  /** What the action is worth in TWD minor units; null when it cannot be valued (it then asks). */
  amountMinor: number | null;
  title: string;
  rows: readonly ConfirmRow[];
  /** The confirm button's label (default: common.confirm). */
  confirmText?: string;
  /** The dismiss button's label (default: common.cancel). */
  cancelText?: string;
}

/** The store's dispatch, which runs RTK Query's thunks. */
type Dispatch = ThunkDispatch<unknown, unknown, UnknownAction>;

/** How long a tap waits for the member's threshold while its first read is still on the way. */
export const THRESHOLD_WAIT_MS = 2_000;

/** The member's saved threshold in TWD minor units; undefined until it is known. */
function useSavedThreshold(): number | undefined {
  const loggedIn = useSelector(selectLoggedIn);
  const { data } = usePreferencesQuery(undefined, { skip: !loggedIn });
  return data?.confirmAboveMinor;
}

/**
 * The dialog's body: the action's rows and why it is asked. Rendered in antd-mobile's own root
 * (outside the app's providers), so it takes its text ready-made.
 */
function ConfirmBody({
  rows,
  note,
  thresholdMinor,
}: {
  rows: readonly ConfirmRow[];
  note: string;
  thresholdMinor: number;
}) {
  return (
    <div className="confirm-above" data-testid="confirm-above" data-threshold={thresholdMinor}>
      {rows.map((r) => (
        <div className="kv" key={r.testId}>
          <span className="kv-k">{r.label}</span>
          <span className="kv-v" data-testid={`confirm-above-${r.testId}`}>
            {r.value}
          </span>
        </div>
      ))}
      <p className="muted small" data-testid="confirm-above-note">
        {note}
      </p>
    </div>
  );
}

/**
 * `ask(request)`: true when the action may be sent — at once below the threshold, else once the
 * member confirms in the dialog; false when they dismiss it. A tap made before the member's
 * threshold has been read waits for that read (at most THRESHOLD_WAIT_MS) and otherwise uses the
 * default. Stable while the threshold and the language stay the same.
 */
export function useConfirmAbove(): (request: ConfirmRequest) => Promise<boolean> {
  const { t } = useTranslation();
  const dispatch = useDispatch<Dispatch>();
  const loggedIn = useSelector(selectLoggedIn);
  const saved = useSavedThreshold();
  return useCallback(
    async (request: ConfirmRequest) => {
      const thresholdMinor =
        saved ?? (loggedIn ? await readThreshold(dispatch) : CONFIRM_ABOVE_DEFAULT_MINOR);
      if (!confirmNeeded(request.amountMinor, thresholdMinor)) return true;
      return Dialog.confirm({
        title: request.title,
        content: (
          <ConfirmBody
            rows={request.rows}
            thresholdMinor={thresholdMinor}
            note={
              thresholdMinor === 0
                ? t('confirm.noteAlways')
                : t('confirm.note', { amount: formatMinor(thresholdMinor) })
            }
          />
        ),
        confirmText: request.confirmText ?? t('common.confirm'),
        cancelText: request.cancelText ?? t('common.cancel'),
      });
    },
    [t, dispatch, loggedIn, saved],
  );
}

/** The member's threshold from user/preferences (the read under way, or a new one), or the default. */
async function readThreshold(dispatch: Dispatch): Promise<number> {
  const read = dispatch(preferencesApi.endpoints.preferences.initiate(undefined, { subscribe: false }));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, THRESHOLD_WAIT_MS, undefined);
  });
  try {
    const prefs = await Promise.race([read.unwrap(), late]);
    return prefs?.confirmAboveMinor ?? CONFIRM_ABOVE_DEFAULT_MINOR;
  } catch {
    return CONFIRM_ABOVE_DEFAULT_MINOR;
  } finally {
    clearTimeout(timer);
  }
}
