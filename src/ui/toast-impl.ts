/** The lazily loaded half of ./toast.ts (its own chunk), with antd-mobile's React 19 render hook. */
import './antd-render';

export { Toast } from 'antd-mobile';
