/** The four top-level screens that show the bottom TabBar, in tab order. */
export const TAB_PATHS = ['/home/index', '/position/position', '/market/market', '/user/usercenter'] as const;
