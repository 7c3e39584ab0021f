/**
 * The trading feature's public entry: what other features may use of it (lint
 * `boundaries/imports` refuses their imports of its other files). The order ticket: `OrderPanel`
 * (one instrument's ticket with a quote the caller gives, or in a day-trade mode with its own
 * place-order call), `LiveOrderPanel` (the ticket under the instrument's live quote) and
 * `QuickTicket` (a live quote row with the ticket under it).
 */
export {
  LiveOrderPanel,
  OrderPanel,
  type DayTradeMode,
  type OrderPanelProps,
  type PlaceOrderCall,
} from './components/order-panel';
export { QuickTicket } from './components/quick-ticket';
