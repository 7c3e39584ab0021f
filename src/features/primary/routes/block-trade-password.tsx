/**
 * /user/blockTradePassword: set the block-trade password (鉅額交易密碼; six digits, entered
 * twice), or change it with the old one → user/setBlockTradePassword. Shows from
 * user/blockTradePassword whether one is set, how many wrong entries are left before it locks,
 * and the lock itself (an operator resets it). "Set" the first time, "change" afterwards (the
 * server's toast: blockTradePasswordSet / passwordChanged). Opened from settings and from a block
 * trade refused with blockTradePasswordNotSet; afterwards the member goes back there (opened by
 * its address: the block-trade tab). Test ids `block-password-*`
 * (src/ui/digit-password-page.tsx).
 */
import { useSelector } from 'react-redux';
import { useBlockTradePasswordQuery, useSetBlockTradePasswordMutation } from '../../../api/primary-api';
import { selectLoggedIn } from '../../../api/session';
import {
  DigitPasswordPage,
  type DigitPasswordText,
  type DigitPasswordValues,
} from '../../../ui/digit-password-page';

const TEXT: DigitPasswordText = {
  title: 'primary.passwordScreen.title',
  set: 'primary.passwordScreen.set',
  change: 'primary.passwordScreen.change',
  old: 'primary.passwordScreen.old',
  first: 'primary.password',
  new: 'primary.passwordScreen.new',
  placeholder: 'password.fundsPlaceholder',
  required: 'primary.passwordScreen.required',
  rule: 'primary.passwordScreen.rule',
  notSetHint: 'primary.passwordScreen.notSetHint',
  locked: 'primary.passwordScreen.locked',
  triesLeft: 'primary.passwordScreen.triesLeft',
};

export function BlockTradePasswordPage() {
  const loggedIn = useSelector(selectLoggedIn);
  const { data } = useBlockTradePasswordQuery(undefined, {
    skip: !loggedIn,
    refetchOnMountOrArgChange: true,
  });
  const [save, { isLoading }] = useSetBlockTradePasswordMutation();
  const onSave = async (v: DigitPasswordValues) =>
    'data' in
    (await save({
      ...(v.old !== undefined ? { oldPassword: v.old } : {}),
      password: v.password,
      confirmPassword: v.confirm,
    }));
  return (
    <DigitPasswordPage
      state={data}
      saving={isLoading}
      save={onSave}
      text={TEXT}
      testId="block-password"
      fallback="/market/bidding?tab=blockTrade"
    />
  );
}
