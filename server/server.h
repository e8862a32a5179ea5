// The HTTP server of `canju serve`: the JSON API (api.h) under /api/ and the
// embedded page (assets.h) for everything else. Serves GET only, binds to
// 127.0.0.1 unless told otherwise, answers bad requests with 4xx JSON and
// never serves a file from disk.
//
//   std::unique_ptr<Api> api;  Api::Open({store_dir, tb_dir}, &api);
//   Server server(api.get());
//   Status st = server.Start({"127.0.0.1", 0});   // 0: any free port
//   ... server.url() ...
//   server.Stop();
#pragma once

#include <memory>
#include <string>

#include "server/api.h"
#include "variants/status.h"

namespace canju::server {

class Server {
 public:
  struct Options {
    std::string host = "127.0.0.1";
    int port = 8080;  // 0: any free port (see port())
  };

  explicit Server(Api* api);  // `api` must outlive the server
  ~Server();                  // stops
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and starts answering on a background thread; returns once the
  // socket listens, so a client may connect at once.
  Status Start(const Options& options);
  // Stops accepting, finishes the requests in progress and joins the thread.
  void Stop();

  int port() const;
  std::string url() const;  // "http://127.0.0.1:8080/"

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace canju::server
