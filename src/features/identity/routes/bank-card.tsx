/**
 * /user/BankCard: add a bank card (product-spec §3 "Bank card", §5 "Bank card"). A Taiwan account
 * (the default): cardholder name, card number, the 3-digit bank code (typed, or chosen from the
 * list of contract/banks.ts, which fills the bank name; an unlisted code takes a typed name), the
 * bank name, the 4-digit branch code and the branch name. The "account outside Taiwan" switch
 * swaps the codes for the UPI / IFSC field. Every shown field is required. Real-name verification
 * comes first: until it is verified the screen says so and links to /user/bandCard. The holder
 * defaults to the verified name (the server requires a match).
 */
import { Button, Form, List, NoticeBar, Popup, Result, SearchBar, Switch } from 'antd-mobile';
import type { FormInstance } from 'antd-mobile/es/components/form';
import { useMemo, useRef, useState } from 'react';
import '../identity.css';
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { bankByCode, TAIWAN_BANKS, type TaiwanBank } from '../../../../contract/banks';
import { useAddBankCardMutation, useKycQuery } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import { langOf } from '../../../lib/format';
import { keyRule } from '../../../ui/form-rule';
import { KycTag } from '../../../ui/kyc-tag';
import { Loading } from '../../../ui/loading';
import { LoginPrompt } from '../../../ui/login-prompt';
import { Page } from '../../../ui/page';
import { SubmitButton } from '../../../ui/submit-button';
import { TestIdInput } from '../../../ui/testid-input';
import {
  bankCodeError,
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
  outsideTaiwan?: boolean;
  bankCode?: string;
  bankName: string;
  branchName: string;
  branchCode?: string;
  upi?: string;
}

/** The listed banks in a bottom sheet, searchable by code or name (either language). */
function BankPicker({
  visible,
  onClose,
  onPick,
}: {
  visible: boolean;
  onClose: () => void;
  onPick: (bank: TaiwanBank) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return TAIWAN_BANKS;
    return TAIWAN_BANKS.filter(
      (b) => b.code.includes(q) || b.tw.includes(q) || b.en.toLowerCase().includes(q),
    );
  }, [query]);
  return (
    <Popup
      visible={visible}
      onMaskClick={onClose}
      onClose={onClose}
      destroyOnClose
      bodyStyle={{ borderRadius: '12px 12px 0 0', height: '70vh' }}
    >
      <div className="bank-picker" data-testid="bank-picker">
        <div className="bank-picker-title">{t('card.pickTitle')}</div>
        <SearchBar placeholder={t('card.pickSearch')} value={query} onChange={setQuery} />
        <List className="bank-picker-list">
          {shown.map((b) => (
            <List.Item
              key={b.code}
              prefix={<span className="bank-picker-code">{b.code}</span>}
              description={lang === 'tw' ? b.en : b.tw}
              onClick={() => onPick(b)}
              data-testid={`bank-option-${b.code}`}
            >
              {b[lang]}
            </List.Item>
          ))}
        </List>
      </div>
    </Popup>
  );
}

/**
 * The bank name: read-only and filled in when the code is a listed bank (`listed`), with a hint
 * when a well-formed code is not listed; free text abroad.
 */
function BankNameItem({
  outsideTaiwan,
  listed,
  bankCode,
}: {
  outsideTaiwan: boolean;
  listed: ReturnType<typeof bankByCode>;
  bankCode: string;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="bankName"
      label={t('card.bank')}
      rules={[keyRule(t, requiredError)]}
      description={
        outsideTaiwan
          ? undefined
          : listed
            ? t('card.bankFromCode')
            : bankCode.length === 3 && !bankCodeError(bankCode)
              ? t('card.bankUnlisted')
              : undefined
      }
    >
      <TestIdInput
        testId="card-bank"
        maxLength={60}
        readOnly={!!listed}
        placeholder={t(outsideTaiwan ? 'card.bankPlaceholderAbroad' : 'card.bankPlaceholder')}
        clearable={!listed}
      />
    </Form.Item>
  );
}

/** The branch name (required). */
function BranchNameItem() {
  const { t } = useTranslation();
  return (
    <Form.Item name="branchName" label={t('card.branch')} rules={[keyRule(t, requiredError)]}>
      <TestIdInput testId="card-branch" maxLength={60} placeholder={t('card.branchPlaceholder')} clearable />
    </Form.Item>
  );
}

/** The holder (prefilled with the verified real name) and the card number. */
function HolderAndNumberFields() {
  const { t } = useTranslation();
  return (
    <>
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
    </>
  );
}

/** A card abroad: bank and branch names and the UPI code. */
function AbroadFields() {
  const { t } = useTranslation();
  return (
    <>
      <BankNameItem outsideTaiwan listed={undefined} bankCode="" />
      <BranchNameItem />
      <Form.Item
        name="upi"
        label={t('card.upi')}
        rules={[keyRule(t, upiError)]}
        description={t('card.upiHint')}
      >
        <TestIdInput
          testId="card-upi"
          maxLength={32}
          placeholder={t('card.upiPlaceholder')}
          autoCapitalize="characters"
          clearable
        />
      </Form.Item>
    </>
  );
}

/** A Taiwan card: bank code (typed or picked: `onPick`), bank name, branch code and branch name. */
function TaiwanFields({
  listed,
  bankCode,
  onPick,
}: {
  listed: ReturnType<typeof bankByCode>;
  bankCode: string;
  onPick: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="bankCode"
        label={t('card.bankCode')}
        rules={[keyRule(t, bankCodeError)]}
        extra={
          <Button size="small" fill="outline" onClick={onPick} data-testid="card-bank-pick">
            {t('card.pick')}
          </Button>
        }
      >
        <TestIdInput
          testId="card-bank-code"
          inputMode="numeric"
          maxLength={3}
          placeholder={t('card.bankCodePlaceholder')}
          autoComplete="off"
        />
      </Form.Item>
      <BankNameItem outsideTaiwan={false} listed={listed} bankCode={bankCode} />
      <Form.Item
        name="branchCode"
        label={t('card.branchCode')}
        rules={[keyRule(t, branchCodeError)]}
        description={t('card.branchCodeHint')}
      >
        <TestIdInput
          testId="card-branch-code"
          inputMode="numeric"
          maxLength={4}
          placeholder={t('card.branchCodePlaceholder')}
          autoComplete="off"
          clearable
        />
      </Form.Item>
      <BranchNameItem />
    </>
  );
}

/**
 * Fills the bank name in from a listed bank code (contract/banks.ts, in `lang`), and clears it
 * again when the code changes to an unlisted one while the name is still the one filled in.
 */
function useBankNameFill(form: FormInstance, lang: ReturnType<typeof langOf>) {
  /** The bank name this screen filled in from a listed code (cleared again if the code changes). */
  const filled = useRef<string | null>(null);

  return (code: string) => {
    const bank = bankByCode(code.trim());
    if (bank) {
      filled.current = bank[lang];
      form.setFieldsValue({ bankName: bank[lang] });
    } else if (filled.current !== null && form.getFieldValue('bankName') === filled.current) {
      filled.current = null;
      form.setFieldsValue({ bankName: '' });
    }
  };
}

function AddCardForm({ verifiedName }: { verifiedName: string }) {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const navigate = useNavigate();
  const [form] = Form.useForm<CardForm>();
  const [add, { isLoading }] = useAddBankCardMutation();
  const [picking, setPicking] = useState(false);
  const outsideTaiwan = Form.useWatch('outsideTaiwan', form) ?? false;
  const bankCode = ((Form.useWatch('bankCode', form) as string | undefined) ?? '').trim();
  const listed = outsideTaiwan ? undefined : bankByCode(bankCode);
  const fillBankName = useBankNameFill(form, lang);

  const onFinish = async (v: CardForm) => {
    const common = {
      holderName: v.holderName.trim(),
      cardNumber: normaliseCardNumber(v.cardNumber),
      bankName: v.bankName.trim(),
      branchName: v.branchName.trim(),
    };
    const res = await add(
      v.outsideTaiwan
        ? { ...common, outsideTaiwan: true, upi: (v.upi ?? '').trim() }
        : { ...common, bankCode: (v.bankCode ?? '').trim(), branchCode: (v.branchCode ?? '').trim() },
    );
    if ('data' in res) navigate('/user/WithCard', { replace: true });
  };

  return (
    <>
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        onValuesChange={(changed: Partial<CardForm>) => {
          if (changed.bankCode !== undefined) fillBankName(changed.bankCode);
        }}
        initialValues={{ holderName: verifiedName, outsideTaiwan: false }}
        footer={
          <SubmitButton loading={isLoading} testId="card-submit">
            {t('card.submit')}
          </SubmitButton>
        }
      >
        <HolderAndNumberFields />
        {outsideTaiwan ? (
          <AbroadFields />
        ) : (
          <TaiwanFields listed={listed} bankCode={bankCode} onPick={() => setPicking(true)} />
        )}
        <Form.Item
          name="outsideTaiwan"
          label={t('card.outsideTaiwan')}
          valuePropName="checked"
          description={t('card.outsideTaiwanHint')}
        >
          <Switch data-testid="card-outside-taiwan" />
        </Form.Item>
      </Form>
      <BankPicker
        visible={picking}
        onClose={() => setPicking(false)}
        onPick={(bank) => {
          setPicking(false);
          form.setFieldsValue({ bankCode: bank.code });
          fillBankName(bank.code);
          void form.validateFields(['bankCode', 'bankName']);
        }}
      />
    </>
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
