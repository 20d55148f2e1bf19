import { zodResolver } from '@hookform/resolvers/zod';
import { loginRequest } from '@loyalty/contracts';

/** The contract's login schema as a form resolver; loaded apart from the sign-in page (see lazy-resolver). */
export const loginResolver = zodResolver(loginRequest);
