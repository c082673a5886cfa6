wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"query":"{ tables { id name positions status currentDraw { id number phase openRound minStake } } jackpot { balance enabled } }"}'
