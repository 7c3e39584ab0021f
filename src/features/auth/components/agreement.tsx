import { Checkbox, Form } from 'antd-mobile';
import type { FormInstance } from 'antd-mobile/es/components/form';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ResOf } from '../../../../contract/api';
import { useDispatch } from 'react-redux';
import { api, useAgreementPageQuery } from '../../../api/api';
import type { AppDispatch } from '../../../app/store';
import { readItem, writeItem } from '../../../lib/storage';

/**
 * localStorage key holding the version of the privacy agreement accepted on this device: the
 * login form starts ticked while it matches the agreement's current version, so a member ticks
 * it once per device and again only when the operator changes the agreement.
 */
export const AGREEMENT_ACCEPTED_KEY = 'agreement_accepted';

/**
 * The agreement's version: the latest `updatedAt` of its texts (an operator's edit in either
 * language), `shipped` while both are the text shipped with the app; null before it is known.
 */
export function agreementVersion(page: ResOf<'common/page'> | undefined): string | null {
  if (!page) return null;
  const dates = page.texts.map((x) => x.updatedAt).filter((d): d is string => !!d);
  return dates.length ? dates.sort().at(-1)! : 'shipped';
}

/**
 * The agreement's version and whether this device accepted it (`accepted`); `remember()` records
 * acceptance of the current version (call it once a login with the box ticked succeeded; if the
 * agreement has not arrived yet, it is written when it does).
 */
export function useAgreementMemory(): { version: string | null; accepted: boolean; remember: () => void } {
  const { data } = useAgreementPageQuery();
  const dispatch = useDispatch<AppDispatch>();
  const version = agreementVersion(data);
  return {
    version,
    accepted: version !== null && readItem(AGREEMENT_ACCEPTED_KEY) === version,
    remember: () => {
      if (version !== null) return writeItem(AGREEMENT_ACCEPTED_KEY, version);
      const req = dispatch(api.endpoints.agreementPage.initiate(undefined, { subscribe: false }));
      void req.unwrap().then(
        (page) => writeItem(AGREEMENT_ACCEPTED_KEY, agreementVersion(page)),
        () => undefined,
      );
    },
  };
}

/**
 * For the login and registration forms: the form's `agree` box starts ticked when this device
 * accepted the current agreement (unless the member already touched it), and the returned
 * `remember()` records acceptance; call it once the login or registration succeeded.
 */
export function useRememberedAgreement(form: FormInstance): () => void {
  const agreement = useAgreementMemory();
  const ticked = useRef(false);
  useEffect(() => {
    if (agreement.accepted && !ticked.current && !form.isFieldTouched('agree')) {
      ticked.current = true;
      form.setFieldsValue({ agree: true });
    }
  }, [agreement.accepted, form]);
  return agreement.remember;
}

/** The privacy agreement checkbox (must be accepted to log in or register). */
export function AgreementCheckbox({
  checked,
  onChange,
  testId,
}: {
  checked?: boolean;
  onChange?: (v: boolean) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Checkbox
      checked={!!checked}
      onChange={onChange}
      data-testid={testId}
      style={{ '--icon-size': '18px', '--font-size': '13px' }}
    >
      {t('auth.agree')}
    </Checkbox>
  );
}

/** The form field holding the agreement checkbox; the form cannot submit until it is ticked. */
export function AgreementField({ testId }: { testId: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="agree"
      valuePropName="checked"
      extra={
        <Link to="/user/agreement" className="small" data-testid={`${testId}-read`}>
          {t('auth.readAgreement')}
        </Link>
      }
      rules={[
        {
          validator: async (_: unknown, v: boolean) => {
            if (!v) throw new Error(t('validation.agreeRequired'));
          },
        },
      ]}
    >
      <AgreementCheckbox testId={testId} />
    </Form.Item>
  );
}
