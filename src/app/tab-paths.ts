/** The five top-level screens that show the bottom TabBar, in tab order (product-spec: Home, Trade, Market, Follow orders, Mine). */
export const TAB_PATHS = [
  '/home/index',
  '/position/position',
  '/market/market',
  '/gdindex/gdindex',
  '/user/usercenter',
] as const;
