#include "server/server.h"

#include <httplib.h>

#include <chrono>
#include <thread>

#include "server/assets.h"

namespace canju::server {

using nlohmann::json;

namespace {

void SendJson(httplib::Response& res, int status, const json& body) {
  res.status = status;
  // Text from the store is passed on as stored: bytes that are not UTF-8
  // (a record from a broken file) go out as U+FFFD rather than failing.
  res.set_content(body.dump(-1, ' ', false, json::error_handler_t::replace), "application/json; charset=utf-8");
  res.set_header("Cache-Control", "no-store");
}

void SendError(httplib::Response& res, int status, const std::string& message) {
  SendJson(res, status, json{{"error", message}, {"status", status}});
}

std::string StatusText(int status) {
  switch (status) {
    case 400: return "bad request";
    case 404: return "not found";
    case 405: return "method not allowed";
    case 413: return "request too large";
    case 414: return "URI too long";
    case 416: return "range not satisfiable";
    case 431: return "request headers too large";
    default: return "HTTP error " + std::to_string(status);
  }
}

bool IsLoopback(const std::string& host) { return host == "127.0.0.1" || host == "localhost" || host == "::1"; }

// The Host header's name without the port.
std::string HostName(const std::string& header) {
  if (!header.empty() && header[0] == '[') {
    const size_t end = header.find(']');
    return end == std::string::npos ? header : header.substr(1, end - 1);
  }
  return header.substr(0, header.find(':'));
}

}  // namespace

struct Server::Impl {
  Api* api = nullptr;
  httplib::Server http;
  std::thread thread;
  std::string host;
  int port = -1;
  bool running = false;

  void Install() {
    http.set_read_timeout(5, 0);
    http.set_write_timeout(5, 0);
    http.set_payload_max_length(64 * 1024);  // GET only: no request needs a body
    // httplib's default also sets SO_REUSEPORT, which would let a second
    // `canju serve` share the port silently; a busy port must be an error.
    http.set_socket_options([](socket_t sock) {
      int yes = 1;
      ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<const void*>(&yes), sizeof(yes));
    });
    http.set_default_headers({{"X-Content-Type-Options", "nosniff"},
                              {"Referrer-Policy", "no-referrer"},
                              {"Content-Security-Policy",
                               "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; frame-ancestors 'none'"}});

    http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      if (req.method != "GET" && req.method != "HEAD") {
        res.set_header("Allow", "GET, HEAD");
        SendError(res, 405, "method " + req.method + " not allowed: the server only reads");
        return httplib::Server::HandlerResponse::Handled;
      }
      // Bound to this machine only: refuse pages of other sites that reach
      // it through a name resolving to 127.0.0.1 (DNS rebinding).
      if (IsLoopback(host) && req.has_header("Host") && !IsLoopback(HostName(req.get_header_value("Host")))) {
        SendError(res, 403, "requests must be addressed to this machine (Host: 127.0.0.1 or localhost)");
        return httplib::Server::HandlerResponse::Handled;
      }
      return httplib::Server::HandlerResponse::Unhandled;
    });

    http.Get(R"(/.*)", [this](const httplib::Request& req, httplib::Response& res) {
      if (req.path.rfind("/api/", 0) == 0) {
        QueryParams query;
        for (const auto& [k, v] : req.params) query.emplace(k, v);  // the first of repeated names
        ApiReply reply = api->Get(req.path, query);
        SendJson(res, reply.status, reply.body);
        return;
      }
      const WebAsset* asset = FindWebAsset(req.path);
      if (!asset) {
        res.status = 404;
        res.set_content("Not found. The page is at /\n", "text/plain; charset=utf-8");
        return;
      }
      res.set_content(asset->data.data(), asset->data.size(), std::string(asset->content_type).c_str());
      res.set_header("Cache-Control", "no-cache");
    });

    http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
      std::string what = "unknown exception";
      try {
        std::rethrow_exception(ep);
      } catch (const std::exception& e) {
        what = e.what();
      } catch (...) {
      }
      SendError(res, 500, "internal error: " + what);
    });

    // Errors httplib finds itself (URI too long, bad request line): JSON too.
    http.set_error_handler(httplib::Server::HandlerWithResponse(
        [](const httplib::Request&, httplib::Response& res) {
          if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
          SendError(res, res.status, StatusText(res.status));
          return httplib::Server::HandlerResponse::Handled;
        }));
  }
};

Server::Server(Api* api) : impl_(new Impl) {
  impl_->api = api;
  impl_->Install();
}

Server::~Server() { Stop(); }

Status Server::Start(const Options& options) {
  if (impl_->running) return Status::InvalidArgument("the server is already running");
  if (options.port < 0 || options.port > 65535)
    return Status::InvalidArgument("port " + std::to_string(options.port) + " is not from 0 to 65535");
  impl_->host = options.host;
  int port = -1;
  if (options.port == 0) {
    port = impl_->http.bind_to_any_port(options.host);
  } else if (impl_->http.bind_to_port(options.host, options.port)) {
    port = options.port;
  }
  if (port <= 0)
    return Status::IOError("cannot listen on " + options.host + ":" + std::to_string(options.port) +
                           (options.port ? " (is the port in use? --port 0 picks a free one)" : ""));
  impl_->port = port;
  impl_->api->AllowSolves();
  impl_->thread = std::thread([this] { impl_->http.listen_after_bind(); });
  // stop() only works once the accept loop runs.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!impl_->http.is_running()) {
    if (std::chrono::steady_clock::now() > deadline) {
      impl_->thread.detach();
      return Status::IOError("the HTTP server did not start");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  impl_->running = true;
  return Status::OK();
}

void Server::Stop() {
  if (!impl_->running) return;
  impl_->api->CancelSolves();  // a running search answers now instead of holding up the stop
  impl_->http.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
  impl_->running = false;
}

int Server::port() const { return impl_->port; }

std::string Server::url() const {
  const std::string& h = impl_->host;
  const std::string shown = h == "0.0.0.0" ? "127.0.0.1" : h.find(':') != std::string::npos ? "[" + h + "]" : h;
  return "http://" + shown + ":" + std::to_string(impl_->port) + "/";
}

}  // namespace canju::server
