# The console as production runs it: the compiled server (server/dist/main.js) and the built
# web app, on Node 26 (the current LTS, as CI): the compiled server that CI's end-to-end suite starts and
# tests, through scripts/serve.mjs (`npm run serve`), which sets its heap limit (HEAP_MB, README).
#   docker build -t coldwatch .
#   docker run -p 8080:8080 -e DEMO=1 coldwatch                       # demo, embedded DB and broker
#   docker compose up                                                 # with PostgreSQL, Mosquitto, Mailpit
FROM node:26-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:26-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=8080 MQTT_PORT=1883 DATA_DIR=/data
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages ./packages
COPY --from=build /app/server/package.json ./server/package.json
COPY --from=build /app/server/dist ./server/dist
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/scripts/start.mjs /app/scripts/serve.mjs ./scripts/
RUN mkdir /data && chown node:node /data
VOLUME /data
EXPOSE 8080 1883
USER node
CMD ["node", "scripts/serve.mjs"]
