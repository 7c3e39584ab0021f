/**
 * Opening a search result (a hit, a history entry or a hot search): the normal detail screen, and
 * for a logged-in member an entry in their search history (search/addHistory; a failure there
 * never blocks the navigation). Visitors open the detail without a history.
 */
import { useCallback } from 'react';
import { useSelector } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { selectLoggedIn } from '../../../api/session';
import { useAddSearchHistoryMutation } from '../api/search-api';

/** Returns `open(symbol)`. */
export function useOpenResult(): (symbol: string) => void {
  const navigate = useNavigate();
  const loggedIn = useSelector(selectLoggedIn);
  const [record] = useAddSearchHistoryMutation();
  return useCallback(
    (symbol: string) => {
      if (loggedIn) void record({ symbol });
      navigate(`/market/marketDetail?symbol=${encodeURIComponent(symbol)}`);
    },
    [loggedIn, record, navigate],
  );
}
