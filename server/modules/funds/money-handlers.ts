/**
 * Money in and out (issue 4), gathered for server/app.ts: deposit channels and hours
 * (channels.ts), withdrawals (withdrawals.ts), exchange rates and currency exchange
 * (../fx/handlers.ts), balances and statements (statement.ts).
 */
import type { Handlers } from '../common/context';
import { fxHandlers } from '../fx/handlers';
import { channelHandlers } from './channels';
import { statementHandlers } from './statement';
import { withdrawalHandlers } from './withdrawals';

export const moneyHandlers: Pick<
  Handlers,
  | 'user/statement'
  | 'user/balances'
  | 'user/depositChannels'
  | 'user/withdraw'
  | 'user/withdrawable'
  | 'user/rates'
  | 'user/exchange'
  | 'admin/withdrawals'
  | 'admin/approveWithdrawal'
  | 'admin/rejectWithdrawal'
  | 'admin/channels'
  | 'admin/saveChannel'
  | 'admin/rates'
  | 'admin/saveRate'
> = {
  ...statementHandlers,
  ...channelHandlers,
  ...withdrawalHandlers,
  ...fxHandlers,
};
