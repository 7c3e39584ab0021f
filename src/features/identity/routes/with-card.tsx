/**
 * /user/WithCard: the member's bank cards (masked numbers; the bank in the reader's language for a
 * listed bank code; bank and branch code, or the UPI / IFSC of an account outside Taiwan) with
 * delete (after a confirmation) and an "add card" button to /user/BankCard (product-spec §2
 * "Bank card: add and delete").
 */
import { Button, Dialog } from 'antd-mobile';
import '../identity.css';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { bankDisplayName } from '../../../../contract/banks';
import type { BankCard } from '../../../../contract/identity';
import { useBankCardsQuery, useDeleteBankCardMutation } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { langOf } from '../../../lib/format';
import { Loading } from '../../../ui/loading';
import { LoginPrompt } from '../../../ui/login-prompt';
import { NoData } from '../../../ui/no-data';
import { Page } from '../../../ui/page';

/** "004-0037" (bank code, branch code) for a Taiwan account; older cards may lack the bank code. */
function codesOf(card: BankCard): string {
  return [card.bankCode, card.branchCode].filter(Boolean).join('-');
}

function CardItem({ card }: { card: BankCard }) {
  const { t, i18n } = useTranslation();
  const bank = bankDisplayName(card.bankCode, card.bankName, langOf(i18n.language));
  const [remove, { isLoading }] = useDeleteBankCardMutation();
  const onDelete = async () => {
    const ok = await Dialog.confirm({
      content: t('card.deleteConfirm', { bank, number: card.cardNumberMasked }),
      confirmText: t('card.delete'),
      cancelText: t('common.cancel'),
    });
    if (ok) await remove({ id: card.id });
  };
  return (
    <section className="card bank-card" data-testid={`bank-card-${card.id}`}>
      <div className="bank-card-head">
        <span className="bank-card-bank">{bank}</span>
        <span className="bank-card-branch">{card.branchName}</span>
      </div>
      <div className="bank-card-number" data-testid={`bank-card-number-${card.id}`}>
        {card.cardNumberMasked}
      </div>
      <div className="bank-card-foot">
        <span data-testid={`bank-card-codes-${card.id}`}>
          {card.holderName} ·{' '}
          {card.outsideTaiwan ? `${t('card.upi')} ${card.upi ?? ''}` : `${t('card.codes')} ${codesOf(card)}`}
        </span>
        <Button
          size="mini"
          fill="outline"
          loading={isLoading}
          onClick={() => void onDelete()}
          data-testid={`bank-card-delete-${card.id}`}
        >
          {t('card.delete')}
        </Button>
      </div>
    </section>
  );
}

export function WithCardPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const { data: cards, isLoading } = useBankCardsQuery(undefined, { skip: !loggedIn });
  return (
    <Page title={t('card.listTitle')}>
      {!loggedIn ? (
        <LoginPrompt />
      ) : isLoading ? (
        <Loading />
      ) : (
        <>
          {cards?.length ? (
            cards.map((c) => <CardItem key={c.id} card={c} />)
          ) : (
            <NoData testId="cards-empty" />
          )}
          <div className="center-pad">
            <Button block color="primary" onClick={() => navigate('/user/BankCard')} data-testid="card-add">
              {t('card.add')}
            </Button>
          </div>
        </>
      )}
    </Page>
  );
}
