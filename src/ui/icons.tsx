/** Small inline icons (no icon library): stroke icons sized by font-size. */
import type { ReactNode } from 'react';

function Svg({ children }: { children: ReactNode }) {
  return (
    <svg
      width="1em"
      height="1em"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}

export const HomeIcon = () => (
  <Svg>
    <path d="M3 11l9-7 9 7" />
    <path d="M5 10v10h5v-6h4v6h5V10" />
  </Svg>
);
export const TradeIcon = () => (
  <Svg>
    <path d="M4 17l5-5 4 4 7-8" />
    <path d="M15 8h5v5" />
  </Svg>
);
export const MarketIcon = () => (
  <Svg>
    <rect x="4" y="10" width="3" height="9" />
    <rect x="10.5" y="5" width="3" height="14" />
    <rect x="17" y="12" width="3" height="7" />
  </Svg>
);
export const FollowIcon = () => (
  <Svg>
    <circle cx="8" cy="8" r="3" />
    <path d="M2.5 19c.8-3 3-5 5.5-5s4.7 2 5.5 5" />
    <path d="M14 9h7M18 6l3 3-3 3" />
  </Svg>
);
export const MineIcon = () => (
  <Svg>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c1.5-4 4.5-6 8-6s6.5 2 8 6" />
  </Svg>
);
export const DepositIcon = () => (
  <Svg>
    <rect x="3" y="6" width="18" height="13" rx="2" />
    <path d="M3 10h18" />
    <path d="M12 13v4M10 15h4" />
  </Svg>
);
/** A card with a tick: credit. */
export const CreditIcon = () => (
  <Svg>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="M7 12l3 3 6-6" />
  </Svg>
);
export const RecordsIcon = () => (
  <Svg>
    <path d="M6 3h9l4 4v14H6z" />
    <path d="M9 11h7M9 15h7M9 7h4" />
  </Svg>
);
export const HoldingsIcon = () => (
  <Svg>
    <path d="M12 3v9l7 4" />
    <circle cx="12" cy="12" r="9" />
  </Svg>
);
export const StarIcon = ({ filled }: { filled?: boolean }) => (
  <svg width="1em" height="1em" viewBox="0 0 24 24" aria-hidden="true">
    <path
      d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z"
      fill={filled ? '#fadb14' : 'none'}
      stroke={filled ? '#fadb14' : 'currentColor'}
      strokeWidth="1.6"
      strokeLinejoin="round"
    />
  </svg>
);
export const SearchIcon = () => (
  <Svg>
    <circle cx="11" cy="11" r="6.5" />
    <path d="M16 16l4.5 4.5" />
  </Svg>
);
export const EtfIcon = () => (
  <Svg>
    <path d="M12 3a9 9 0 1 0 9 9h-9z" />
    <path d="M15 3.5A9 9 0 0 1 20.5 9H15z" />
  </Svg>
);
/** New share subscription: a lottery ticket. */
export const SubscribeIcon = () => (
  <Svg>
    <path d="M4 7h16v3a2 2 0 0 0 0 4v3H4v-3a2 2 0 0 0 0-4z" />
    <path d="M10 7v10" strokeDasharray="2 2" />
  </Svg>
);
/** Customer service: a speech bubble. */
export const ServiceIcon = () => (
  <Svg>
    <path d="M4 5h16v11H9l-5 4z" />
  </Svg>
);
