/**
 * The repay popup of a lending loan: what is owed now (principal + accrued interest), an amount
 * (in part, or "repay all" fills the whole owed amount), and Repay. The server refuses more than
 * is owed ("repayment greater than the loan") and pays interest first.
 */
import { Button, Popup } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CreditLoan } from '../../../../contract/credit';
import { useCreditRepayMutation } from '../../../api/credit-api';
import { sendWithKey, useIdempotencyKeys } from '../../../api/idempotency';
import { formatMinor, minorToInput } from '../../../lib/format';
import { showToast } from '../../../ui/toast';
import { TestIdInput } from '../../../ui/testid-input';
import { loanAmount } from './parts';

export function RepayPopup({ loan, onClose }: { loan: CreditLoan | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [repay, repaying] = useCreditRepayMutation();
  const keys = useIdempotencyKeys();
  const close = () => {
    setText('');
    onClose();
  };
  const onRepay = async () => {
    if (!loan) return;
    const amount = loanAmount(text);
    if ('errorKey' in amount) return showToast({ content: t(amount.errorKey) });
    const minor = amount.minor;
    if (await sendWithKey(keys, { loanId: loan.id, amountMinor: minor }, repay)) {
      showToast({ content: t('credit.repaid') });
      close();
    }
  };
  return (
    <Popup visible={loan !== null} onMaskClick={close} bodyStyle={{ padding: 16 }}>
      {loan && (
        <div className="credit-popup" data-testid="credit-repay-popup">
          <h3 className="card-title">{t('credit.repay')}</h3>
          <div className="muted small">{t('credit.repayHint', { owed: formatMinor(loan.owedMinor) })}</div>
          <div className="muted small">{t('credit.repayAmount')}</div>
          <div className="credit-form">
            <TestIdInput
              testId="credit-repay-amount"
              inputMode="decimal"
              value={text}
              onChange={setText}
              aria-label={t('credit.repayAmount')}
              clearable
            />
            <Button
              size="small"
              fill="outline"
              onClick={() => setText(minorToInput(loan.owedMinor))}
              data-testid="credit-repay-all"
            >
              {t('credit.repayAll')}
            </Button>
          </div>
          <Button
            block
            color="primary"
            loading={repaying.isLoading}
            onClick={onRepay}
            data-testid="credit-repay-submit"
          >
            {t('credit.repay')}
          </Button>
        </div>
      )}
    </Popup>
  );
}
