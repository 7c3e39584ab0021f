/**
 * /user/setPassword: set the funds password (six digits, entered twice), or change it with the
 * old one → user/setPassword. Shows from user/security whether one is set, how many wrong
 * entries are left before withdrawals lock, and the lock itself (an operator unlocks). The title
 * and button say "set" the first time and "change" afterwards (the server's toast says the same:
 * fundsPasswordSet / passwordChanged). Afterwards the member goes back where they came from (the
 * withdraw screen, the member centre, settings); a screen opened by its address goes to the
 * member centre. The form: src/ui/digit-password-page.tsx (test ids `funds-password-*`).
 */
import { useSelector } from 'react-redux';
import { useSecurityQuery, useSetFundsPasswordMutation } from '../../../api/api';
import { selectLoggedIn } from '../../../api/session';
import {
  DigitPasswordPage,
  type DigitPasswordText,
  type DigitPasswordValues,
} from '../../../ui/digit-password-page';

const TEXT: DigitPasswordText = {
  title: 'password.fundsTitle',
  set: 'password.set',
  change: 'password.change',
  old: 'password.oldFunds',
  first: 'password.funds',
  new: 'password.newFunds',
  placeholder: 'password.fundsPlaceholder',
  required: 'password.fundsRequired',
  rule: 'password.fundsRule',
  trivial: 'password.fundsTrivial',
  notSetHint: 'password.notSetHint',
  locked: 'errors.fundsPasswordLocked',
  triesLeft: 'password.triesLeft',
};

export function SetPasswordPage() {
  const loggedIn = useSelector(selectLoggedIn);
  const { data: security } = useSecurityQuery(undefined, {
    skip: !loggedIn,
    refetchOnMountOrArgChange: true,
  });
  const [save, { isLoading }] = useSetFundsPasswordMutation();
  const onSave = async (v: DigitPasswordValues) =>
    'data' in
    (await save({
      ...(v.old !== undefined ? { oldFundsPassword: v.old } : {}),
      fundsPassword: v.password,
      confirmFundsPassword: v.confirm,
    }));
  return (
    <DigitPasswordPage
      state={
        security && {
          set: security.fundsPasswordSet,
          locked: security.fundsPasswordLocked,
          triesLeft: security.fundsPasswordTriesLeft,
        }
      }
      saving={isLoading}
      save={onSave}
      text={TEXT}
      testId="funds-password"
      fallback="/user/usercenter"
    />
  );
}
