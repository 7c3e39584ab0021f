/**
 * Password reset through the operator (user/resetRequest, user/resetPassword), injected into the
 * shared RTK Query api from the reset screens' chunk.
 */
import type { ReqOf, ResOf } from '../../../../contract/api';
import { api } from '../../../api/api';

export const resetApi = api.injectEndpoints({
  endpoints: (b) => ({
    resetRequest: b.mutation<ResOf<'user/resetRequest'>, ReqOf<'user/resetRequest'>>({
      query: (body) => ({ name: 'user/resetRequest', body }),
    }),
    resetPassword: b.mutation<ResOf<'user/resetPassword'>, ReqOf<'user/resetPassword'>>({
      query: (body) => ({ name: 'user/resetPassword', body }),
    }),
  }),
});

export const { useResetRequestMutation, useResetPasswordMutation } = resetApi;
