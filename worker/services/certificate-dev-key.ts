/**
 * The key that signs certificates (issue 22): an RSA private key as a JWK, kept as the secret CERTIFICATE_SIGNING_KEY
 * in production (`wrangler secret put CERTIFICATE_SIGNING_KEY --env production`). Development and tests sign with
 * this published key instead, so a newcomer needs no settings; production refuses to start without its own
 * (worker/env.ts), and a credential signed with this key says nothing to anyone who checks the issuer's key.
 */
export const DEV_CERTIFICATE_KEY = {
  "kty": "RSA",
  "n": "xdgRtO-Q9bpo8i3q880zG7yrHuYSuvfo004URMv6vmSqIZn2dpb0wLD6xHAF2xDIQNJBSzxFLhkhJKNy9Pjg5jic-GJ8Oq2E9zMSPt3bWI9SVa3YHuKHJgn876sBEiHDHTY3qJF40vFGiggG6Sy0MmSPauTpTaHjnoqG-S-J898qffJ_IoC4GDkg8YqJK9QJiAEX1mcjzJq7_cqhDjR1ktOlEjXaVa8F4uGjl54ENuPfB5LM012q3OAv921EID3DuBQ533g2rY7tlt_7-K-Wm20vUPR8USN0cJYUOrRGK8VjFregTxIk2EFxlWJa3ezJXGB_WusYtTArWuUmmabReQ",
  "e": "AQAB",
  "d": "CU7JRHkp2Xmv4sbowRgUEbe-WDmMQ4oSxNAtUXBER21OeL640ur2sFMTNSctC1mehjguFLdM7OaHQeVDrQVBdWtP7Tqa7BrKQOQA9X60CVZS0g-X9ZoEMDSzluX1arA2cPsiQra3V7s8rZVDl_g_sQg8nBORa1LUtdqAD5yeMaAmtgMpshuDjMi64rtrRPAwrqUqqNtoT_co8Uyr7aU3UEdGPg7eQagU0f-I3DIbn2Ey8xU4Qfs-_O3FAHm7gMQo20c3k0ChnL8adn0ZI92zZU7SKAdi6tcKJly1UJJI1S1vMXAS74WMnFD8Z9htUBNRo1TRKdBSt44-5N_KI5r9xQ",
  "p": "7qk8RdN3RrmEnyxhe3mcgvcSq2sZFAEz6kz6H6VABMB_dilApPSQbl5iTlJM-WrA9lvjs771yKyzGdIS_js2LdWSudWd4NzQjT7PgGF9SyHlk8TgUIVD_iKJQZsG8bYOVMIRFs6nvv8xl6PMaNHJ68gOEf7H91eAlI7ljzKLcM0",
  "q": "1DexdAI8-F8eJcbg8UU-jWiyCTJ8kJVfZUdQ-XGpMucpcTO3beuVkyGUfx6Ax0EOb4HtTNTt-nWxFopr2zO_prQQzNKEeTIubX8alLW-Yo5fcfZFCcxABqjQF8jfQlzTW-P_yIidsu5UhNT5q9iQZ6pUFpVdxGdslq7hozOeM10",
  "dp": "kb671hB7qK8mdGYP6e2sTLZBqnkuyW6qm40CukyaOcysiiZLGfFYOm5dLmNIKpCs4kXfWidlxXThswT9IFBcl8TzY5U2Ytm2amtPIKFoeHds0b7LFaEskofYtj3MEdQSEGSrNvhgrFz_lhErhV-IJfr3zLmAuGWxWgeh3L8LNIk",
  "dq": "WC_0nAK6F3RfcM9edqSRw-233j6OqP6Jr-qc6auj5jVNcW9OUG1PsN6JePHSDfso5omVdRIe-q-hsX5AJ80vXTUCrjrlNf_2byYcg6OqxAXp_8-ZDONFz_6iyt98d3Vfl5X9mvW6orqLgM-IGTNbfti3LNNRLebUpyFxPoKawTk",
  "qi": "zJE2qeyL3WUFyakeVPzxjopgk4Zq-MIyCU7mDUp9b8GxtzLCIyc6OC2yAaZquwStLg3JrbbK3xk12uF6WkI-WlAHlNLQidSN0YlVeU1N5RYtq6-v0tRC9nIHmozbi5DtwiHqsGllmX6vpFEYuK0ENyE-dKf8tFDylAwmduS5XXM"
} as const;
