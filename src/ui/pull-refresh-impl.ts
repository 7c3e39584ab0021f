/** The lazily loaded half of ./pull-refresh.tsx (its own chunk): antd-mobile's PullToRefresh. */
export { PullToRefresh } from 'antd-mobile';
