/** The lazily loaded half of ./toast.ts (its own chunk), with antd-mobile's React 19 render hook. */
import './antd-render';
import './toast.css';

export { Toast } from 'antd-mobile';
