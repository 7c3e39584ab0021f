/**
 * /user/BankCard: add a bank card (product-spec §3 "Bank card", §5 "Bank card"): cardholder name,
 * card number, bank name, branch name, branch code and the UPI (also labelled IFSC) field, all
 * required. Real-name verification comes first: until it is verified the screen says so and links
 * to /user/bandCard. The holder defaults to the verified name (the server requires a match).
 */
import { Button, Form, NoticeBar, Result } from 'antd-mobile';
import '../identity.css';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { useAddBankCardMutation, useKycQuery } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { keyRule } from '../../../ui/form-rule';
import { KycTag } from '../../../ui/kyc-tag';
import { Loading } from '../../../ui/loading';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { SubmitButton } from '../../../ui/submit-button';
import { TestIdInput } from '../../../ui/testid-input';
import {
  branchCodeError,
  cardNumberError,
  normaliseCardNumber,
  realNameError,
  requiredError,
  upiError,
} from '../validation';

interface CardForm {
  holderName: string;
  cardNumber: string;
  bankName: string;
  branchName: string;
  branchCode: string;
  upi: string;
}

function AddCardForm({ verifiedName }: { verifiedName: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [add, { isLoading }] = useAddBankCardMutation();

  const onFinish = async (v: CardForm) => {
    const res = await add({
      holderName: v.holderName.trim(),
      cardNumber: normaliseCardNumber(v.cardNumber),
      bankName: v.bankName.trim(),
      branchName: v.branchName.trim(),
      branchCode: v.branchCode.trim(),
      upi: v.upi.trim(),
    });
    if ('data' in res) navigate('/user/WithCard', { replace: true });
  };

  return (
    <Form
      layout="vertical"
      onFinish={onFinish}
      initialValues={{ holderName: verifiedName }}
      footer={
        <SubmitButton loading={isLoading} testId="card-submit">
          {t('card.submit')}
        </SubmitButton>
      }
    >
      <Form.Item
        name="holderName"
        label={t('card.holder')}
        rules={[keyRule(t, realNameError)]}
        description={t('card.holderHint')}
      >
        <TestIdInput testId="card-holder" placeholder={t('card.holderPlaceholder')} clearable />
      </Form.Item>
      <Form.Item name="cardNumber" label={t('card.number')} rules={[keyRule(t, cardNumberError)]}>
        <TestIdInput
          testId="card-number"
          inputMode="numeric"
          maxLength={23}
          placeholder={t('card.numberPlaceholder')}
          autoComplete="off"
          clearable
        />
      </Form.Item>
      <Form.Item name="bankName" label={t('card.bank')} rules={[keyRule(t, requiredError)]}>
        <TestIdInput testId="card-bank" maxLength={60} placeholder={t('card.bankPlaceholder')} clearable />
      </Form.Item>
      <Form.Item name="branchName" label={t('card.branch')} rules={[keyRule(t, requiredError)]}>
        <TestIdInput
          testId="card-branch"
          maxLength={60}
          placeholder={t('card.branchPlaceholder')}
          clearable
        />
      </Form.Item>
      <Form.Item name="branchCode" label={t('card.branchCode')} rules={[keyRule(t, branchCodeError)]}>
        <TestIdInput
          testId="card-branch-code"
          inputMode="numeric"
          maxLength={7}
          placeholder={t('card.branchCodePlaceholder')}
          clearable
        />
      </Form.Item>
      <Form.Item name="upi" label={t('card.upi')} rules={[keyRule(t, upiError)]}>
        <TestIdInput
          testId="card-upi"
          maxLength={32}
          placeholder={t('card.upiPlaceholder')}
          autoCapitalize="characters"
          clearable
        />
      </Form.Item>
    </Form>
  );
}

export function BankCardPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const { data: kyc } = useKycQuery(undefined, { skip: !loggedIn, refetchOnMountOrArgChange: true });

  return (
    <Page title={t('card.addTitle')}>
      {!loggedIn ? (
        <LoginPrompt />
      ) : !kyc ? (
        <Loading />
      ) : kyc.status !== 'verified' ? (
        <Result
          status="info"
          title={t('errors.realNameNotCompleted')}
          description={
            <div className="stack" data-testid="card-kyc-required">
              <div>{t('card.kycFirst')}</div>
              <div>
                <KycTag status={kyc.status} />
              </div>
              <Button color="primary" onClick={() => navigate('/user/bandCard')} data-testid="card-to-kyc">
                {t('identity.title')}
              </Button>
            </div>
          }
        />
      ) : (
        <>
          <NoticeBar color="info" wrap content={t('card.ownOnly')} />
          <AddCardForm verifiedName={kyc.name ?? ''} />
        </>
      )}
    </Page>
  );
}
